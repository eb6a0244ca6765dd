package cli

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// FuzzFlags: any command line (arguments split at NUL) parses or is
// refused in exactly one line, and the range checks either pass or fail
// in one line naming the flag; nothing panics.
func FuzzFlags(f *testing.F) {
	testkit.SeedStrings(f,
		"--speed\x00NaN", "--speed\x001e-300", "--n\x00-1", "--d\x00-5s", "--rate\x002",
		"x.jsonl\x00--dump\x00--speed\x0010", "--nope", "--n=1\x00--\x00-x", "-h", "--d\x00forever",
		"--seed\x0018446744073709551616", "--b=maybe", "",
	)
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		var out bytes.Buffer
		fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
		fs.SetOutput(&out)
		n := fs.Int("n", 1, "")
		speed := fs.Float64("speed", 1, "")
		rate := fs.Float64("rate", 0, "")
		d := fs.Duration("d", time.Second, "")
		fs.Uint64("seed", 1, "")
		fs.Bool("b", false, "")
		fs.Bool("dump", false, "")
		fs.String("s", "", "")
		_, err := parseInterspersed(fs, args)
		if err != nil {
			if err != flag.ErrHelp && strings.Count(out.String(), "\n") != 1 {
				t.Fatalf("refusal of %q is not one line: %q", args, out.String())
			}
			return
		}
		checks := map[string]error{
			"--n":     intIn("--n", *n, 1, 100),
			"--speed": floatIn("--speed", *speed, minSpeed, maxSpeed),
			"--rate":  ratio("--rate", *rate),
			"--d":     positiveDuration("--d", *d),
		}
		for name, err := range checks {
			if err != nil && (!strings.HasPrefix(err.Error(), name+" ") || strings.Contains(err.Error(), "\n")) {
				t.Fatalf("check of %s: %q, want one line starting with the flag", name, err)
			}
		}
	})
}

// FuzzOrderFlag: any --order value is taken or refused without panicking.
func FuzzOrderFlag(f *testing.F) {
	testkit.SeedStrings(f,
		"symbol=ETHBTC&side=BUY&type=LIMIT&quantity=0.01&price=0.04",
		"symbol=ETHBTC&side=SELL&quantity=1&tif=IOC&clientOrderId=bh1",
		"symbol=%zz", "nope=1", "&&&", "",
	)
	f.Fuzz(func(t *testing.T, v string) {
		var l orderList
		if err := l.Set(v); err == nil && (len(l) != 1 || l[0].Symbol == "" || l[0].Side == "" || l[0].Quantity == "") {
			t.Fatalf("Set(%q) took %+v, want symbol, side and quantity", v, l)
		}
	})
}

// FuzzSimKeyFlag: a bad --key value is refused with an error that never
// holds its secret part.
func FuzzSimKeyFlag(f *testing.F) {
	testkit.SeedStrings(f, "k:s3cr3tvalue", "k:s3cr3tvalue:TRADE,FLY", "nosecret", ":s3cr3tvalue", "k::", "k:s3cr3tvalue:")
	f.Fuzz(func(t *testing.T, v string) {
		var k keyFlags
		err := k.set(v)
		if err == nil {
			return
		}
		parts := strings.SplitN(v, ":", 3)
		if len(parts) < 2 || len(parts[1]) < 8 {
			return
		}
		secret := parts[1]
		if strings.Contains(parts[0], secret) || (len(parts) == 3 && strings.Contains(parts[2], secret)) {
			return // the secret also stands where a value may be quoted
		}
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("--key %q refused with %q: holds the secret", v, err)
		}
	})
}
