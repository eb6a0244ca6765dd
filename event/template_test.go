package event

import (
	"reflect"
	"testing"
)

// TestExecOrderTypes: execInOrder writes each field of its table through
// an unsafe pointer by the field's kind; each offset must name a field
// of ExecView of that kind's type (a time an int64, a flag a bool, any
// other text a []byte), and each key its own field.
func TestExecOrderTypes(t *testing.T) {
	typ := reflect.TypeFor[ExecView]()
	want := map[uint8]reflect.Type{kindTime: reflect.TypeFor[int64](), kindBool: reflect.TypeFor[bool]()}
	offsets := map[uintptr]byte{}
	for _, f := range execOrder {
		k := byte(f.key >> 16)
		if f.kind == kindSkip {
			continue // nothing is written
		}
		var field *reflect.StructField
		for i := range typ.NumField() {
			if sf := typ.Field(i); sf.Offset == f.off {
				field = &sf
			}
		}
		wt := want[f.kind]
		if wt == nil {
			wt = reflect.TypeFor[[]byte]()
		}
		if field == nil || field.Type != wt {
			t.Errorf("key %c: offset %d is %v, want a field of type %v", k, f.off, field, wt)
		}
		if other, dup := offsets[f.off]; dup {
			t.Errorf("keys %c and %c write the same field", other, k)
		}
		offsets[f.off] = k
	}
}
