package rest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// slowKlines reads a klines answer as Klines does when klinesOf cannot:
// encoding/json, then kline per bar.
func slowKlines(b []byte) ([]Kline, error) {
	var ws [][]flexString
	if err := decode(b, &ws); err != nil {
		return nil, err
	}
	out := make([]Kline, 0, len(ws))
	for i, w := range ws {
		fields := make([]string, len(w))
		for j, f := range w {
			fields[j] = string(f)
		}
		k, err := kline(fields)
		if err != nil {
			return nil, fmt.Errorf("bar %d: %w", i, err)
		}
		out = append(out, k)
	}
	return out, nil
}

func TestKlinesOf(t *testing.T) {
	doc := `[[1499040000000,"0.01634790","0.80000000","0.01575800","0.01577100","148976.11427815",1499644799999,"2434.19055334",308,"1756.87402397","28.46694368"]]`
	docBar := Kline{OpenTime: 1499040000000, Open: "0.01634790", High: "0.80000000", Low: "0.01575800", Close: "0.01577100",
		Volume: "148976.11427815", CloseTime: 1499644799999, QuoteVolume: "2434.19055334", Trades: 308,
		TakerBuyBaseVolume: "1756.87402397", TakerBuyQuoteVol: "28.46694368"}
	tests := []struct {
		name string
		in   string
		want []Kline // nil: klinesOf leaves it to encoding/json
	}{
		{"the docs' bar", doc, []Kline{docBar}},
		{"empty", ` [ ] `, []Kline{}},
		{"six fields, white space", " [ [ 60000 , \"1\",\"2\" ,\"0.5\",\"1.5\", \"10\" ]\n,\t[120000,\"1.5\",\"3\",\"1\",\"2\",\"0\"] ] ",
			[]Kline{{OpenTime: 60000, Open: "1", High: "2", Low: "0.5", Close: "1.5", Volume: "10"},
				{OpenTime: 120000, Open: "1.5", High: "3", Low: "1", Close: "2", Volume: "0"}}},
		{"numbers and null", `[["60000",1.5e-3,-0,2E+2,null,"1",null,null,null,null,null,"more",7]]`,
			[]Kline{{OpenTime: 60000, Open: "1.5e-3", High: "-0", Low: "2E+2", Volume: "1"}}},
		{"escape", `[[1,"\u0031","2","3","4","5"]]`, nil},
		{"non-ASCII", `[[1,"1é","2","3","4","5"]]`, nil},
		{"five fields", `[[1,"1","2","3","4"]]`, nil},
		{"open time not an integer", `[[1.5,"1","2","3","4","5"]]`, nil},
		{"boolean", `[[1,true,"2","3","4","5"]]`, nil},
		{"nested", `[[1,["1"],"2","3","4","5"]]`, nil},
		{"leading zero", `[[01,"1","2","3","4","5"]]`, nil},
		{"bare dot", `[[1.,"1","2","3","4","5"]]`, nil},
		{"trailing comma", `[[1,"1","2","3","4","5"],]`, nil},
		{"unterminated", `[[1,"1","2","3","4","5"]`, nil},
		{"text after", `[[1,"1","2","3","4","5"]] x`, nil},
		{"not an array", `{"code":-1121}`, nil},
		{"null", `null`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := klinesOf([]byte(tt.in))
			if tt.want == nil {
				if ok {
					t.Errorf("klinesOf(%s) = %+v, want it left to encoding/json", tt.in, got)
				}
				return
			}
			if !ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("klinesOf(%s) = %+v, %v; want %+v", tt.in, got, ok, tt.want)
			}
			if slow, err := slowKlines([]byte(tt.in)); err != nil || !reflect.DeepEqual(slow, got) {
				t.Errorf("encoding/json reads %s as %+v, %v", tt.in, slow, err)
			}
		})
	}
}

// FuzzKlinesOf: whatever klinesOf reads, encoding/json reads the same.
func FuzzKlinesOf(f *testing.F) {
	f.Add([]byte(`[[1499040000000,"0.01634790","0.80000000","0.01575800","0.01577100","148976.11427815",1499644799999,"2434.19055334",308,"1756.87402397","28.46694368"]]`))
	f.Add([]byte(`[["60000",1.5e-3,-0,2E+2,null,"1"],[1,"1","2","3","4","5",6,7,8,9,10,11,12]]`))
	f.Add([]byte(` [ ] `))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, ok := klinesOf(in)
		if !ok {
			return
		}
		want, err := slowKlines(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("klinesOf(%q) = %+v; encoding/json: %+v, %v", in, got, want, err)
		}
	})
}

// BenchmarkKlines reads 240 bars as the market client asks for them.
func BenchmarkKlines(b *testing.B) {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range 240 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `[%d,"6123%d.5","6130%d","6110%d.25","6125%d.75","1.%04d",%d,"612%d.5",%d,"0.5","30000"]`, 60000*i, i%10, i%10, i%10, i%10, i, 60000*i+59999, i, i)
	}
	sb.WriteByte(']')
	body := []byte(sb.String())
	b.Run("klinesOf", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := klinesOf(body); !ok {
				b.Fatal("not read")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := slowKlines(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}
