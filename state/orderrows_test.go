package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// wantRows is what a snapshot built from scratch shows: every order the
// store holds, in the dump's order, each row built anew.
func wantRows(s *Store) []Order {
	var all []*order
	eachOrder(s, func(o *order) { all = append(all, o) })
	slices.SortFunc(all, compareOrders)
	out := make([]Order, len(all))
	for i, o := range all {
		out[i] = *o.materialize()
	}
	return out
}

// eachOrder calls fn for every order s holds, in no particular order.
func eachOrder(s *Store, fn func(o *order)) {
	for m := range s.markets {
		s.markets[m].orders.each(fn)
	}
}

// values copies the rows' values, to check later that they never change.
func values(r OrderRows) []Order {
	out := make([]Order, 0, r.Len())
	for _, o := range r.All() {
		out = append(out, *o)
	}
	return out
}

// checkRows checks r holds want, through every way of reading it, and
// that its chunks are well formed.
func checkRows(t *testing.T, what string, r OrderRows, want []Order) {
	t.Helper()
	if r.Len() != len(want) {
		t.Fatalf("%s: Len = %d, want %d", what, r.Len(), len(want))
	}
	var all []*Order
	for i, o := range r.All() {
		if i >= len(want) {
			t.Fatalf("%s: All yields row %d = %+v, past the %d wanted", what, i, *o, len(want))
		}
		if !sameOrder(*o, want[i]) {
			t.Fatalf("%s: row %d = %+v, want %+v", what, i, *o, want[i])
		}
		all = append(all, o)
	}
	if len(all) != len(want) {
		t.Fatalf("%s: All yields %d rows, want %d", what, len(all), len(want))
	}
	n := 0
	for k, c := range r.chunks {
		if len(c.rows) == 0 || len(c.rows) > chunkSize {
			t.Fatalf("%s: chunk %d holds %d rows", what, k, len(c.rows))
		}
		n += len(c.rows)
		if r.ends[k] != n {
			t.Fatalf("%s: ends[%d] = %d, want %d", what, k, r.ends[k], n)
		}
	}
	if len(r.ends) != len(r.chunks) {
		t.Fatalf("%s: %d ends for %d chunks", what, len(r.ends), len(r.chunks))
	}
	for _, i := range []int{0, len(want) / 3, len(want) - 1} {
		if i < 0 || i >= len(want) {
			continue
		}
		if !reflect.DeepEqual(*r.At(i), want[i]) {
			t.Fatalf("%s: At(%d) = %+v, want %+v", what, i, *r.At(i), want[i])
		}
		if o, at := r.Find(want[i].Market, want[i].OrderID); o != r.At(i) || at != i {
			t.Fatalf("%s: Find(%s, %s) = %p, %d, want row %d", what, want[i].Market, want[i].OrderID, o, at, i)
		}
	}
	if o, at := r.Find(MarketSpot, "00"); o != nil || at != -1 {
		t.Fatalf("%s: Find of an absent order = %p, %d", what, o, at)
	}
	if len(want) > 2 {
		from, to := len(want)/4, len(want)-1
		if s := r.Slice(from, to); !slices.Equal(s, all[from:to]) { // the rows All gave, checked above
			t.Fatalf("%s: Slice(%d, %d) is not rows %d to %d", what, from, to, from, to)
		}
	}
}

// sameOrder is reflect.DeepEqual(a, b) for two rows, made fast (the
// rebuild tests compare every row of every snapshot, and DeepEqual is
// slow under -race): the pointed-to values compared, then the rest with
// ==, and DeepEqual only when that says no (a pointer field added later).
func sameOrder(a, b Order) bool {
	if !samePtr(a.AvgPrice, b.AvgPrice) || !samePtr(a.Leverage, b.Leverage) || !samePtr(a.Close, b.Close) {
		return false
	}
	a0, b0 := a, b
	a.AvgPrice, a.Leverage, a.Close = nil, nil, nil
	b.AvgPrice, b.Leverage, b.Close = nil, nil, nil
	return a == b || reflect.DeepEqual(a0, b0)
}

// samePtr reports whether two pointers are both nil or point to equal values.
func samePtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// checkChanges checks that r.Changes(prev) yields exactly the keys whose
// row is not the same pointer in both, in order.
func checkChanges(t *testing.T, r, prev OrderRows) {
	t.Helper()
	type key struct{ market, id string }
	rows := func(x OrderRows) map[key]*Order {
		m := map[key]*Order{}
		for _, o := range x.All() {
			m[key{o.Market, o.OrderID}] = o
		}
		return m
	}
	a, b := rows(prev), rows(r)
	var want []string
	seen := map[key]bool{}
	for _, o := range slices.Concat(prev.Slice(0, prev.Len()), r.Slice(0, r.Len())) {
		k := key{o.Market, o.OrderID}
		if a[k] != b[k] && !seen[k] {
			seen[k] = true
			want = append(want, k.market+k.id)
		}
	}
	slices.SortFunc(want, func(x, y string) int {
		return compareRows(&Order{Market: x[:len(x)-len(trimMarket(x))], OrderID: trimMarket(x)},
			&Order{Market: y[:len(y)-len(trimMarket(y))], OrderID: trimMarket(y)})
	})
	var got []string
	for x, y := range r.Changes(prev) {
		o := y
		if o == nil {
			o = x
		}
		if x != nil && y != nil && (x.Market != y.Market || x.OrderID != y.OrderID) {
			t.Fatalf("Changes paired %s:%s with %s:%s", x.Market, x.OrderID, y.Market, y.OrderID)
		}
		if x != nil && a[key{x.Market, x.OrderID}] != x || y != nil && b[key{y.Market, y.OrderID}] != y {
			t.Fatalf("Changes yielded a row of the wrong side")
		}
		got = append(got, o.Market+o.OrderID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Changes = %v, want %v", got, want)
	}
}

// trimMarket returns the order id of "contract123" or "spot123".
func trimMarket(s string) string {
	for _, m := range []string{MarketContract, MarketSpot} {
		if len(s) > len(m) && s[:len(m)] == m {
			return s[len(m):]
		}
	}
	return s
}

// rowsWorld drives a store with random adds, changes and closes (which
// evict, so remove), snapshotting now and then.
type rowsWorld struct {
	r    *rand.Rand
	s    *Store
	e    int64
	open []string // "s123" / "c123": markets and ids of the open orders
	next int
}

func (w *rowsWorld) frame(key, status string, z int) []byte {
	w.e++
	zs := strconv.Itoa(z)
	if key[0] == 'c' {
		return contract(key[1:], w.e, status, zs, zs+".5")
	}
	return spot(key[1:], w.e, status, zs, zs+".5")
}

// add makes n orders with ids spread so that they land among the others.
func (w *rowsWorld) add(n int) {
	for range n {
		w.next++
		id := strconv.Itoa(w.r.IntN(1_000_000)*1000 + w.next%1000)
		key := "s" + id
		if w.r.IntN(3) == 0 {
			key = "c" + id
		}
		w.s.ApplyFrame(w.frame(key, "NEW", 0), nil)
		w.open = append(w.open, key)
	}
}

func (w *rowsWorld) change(n int) {
	for range min(n, len(w.open)) {
		w.s.ApplyFrame(w.frame(w.open[w.r.IntN(len(w.open))], "PARTIALLY_FILLED", int(w.e)), nil)
	}
}

// close closes n open orders: random ones, or the n lowest (a run of
// neighbours, so a whole chunk goes once they are evicted).
func (w *rowsWorld) close(n int, run bool) {
	if run {
		slices.SortFunc(w.open, func(a, b string) int {
			return compareRows(&Order{Market: a[:1], OrderID: a[1:]}, &Order{Market: b[:1], OrderID: b[1:]})
		})
	} else {
		w.r.Shuffle(len(w.open), func(i, j int) { w.open[i], w.open[j] = w.open[j], w.open[i] })
	}
	n = min(n, len(w.open))
	for _, key := range w.open[:n] {
		w.s.ApplyFrame(w.frame(key, "FILLED", 100_000_000), nil)
	}
	w.open = w.open[n:]
}

// TestOrderRowsMatchRebuild: along random adds (one, a few, many at
// once), changes and closes (evicting single rows and whole chunks, down
// to no rows at all), each snapshot's chunked rows equal the rows built
// from scratch, Changes names exactly the rows that differ from the
// previous snapshot, and no snapshot taken earlier ever changes.
func TestOrderRowsMatchRebuild(t *testing.T) {
	for _, retention := range []int{0, 40, 1000} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("retention=%d/seed=%d", retention, seed), func(t *testing.T) {
				w := &rowsWorld{r: rand.New(rand.NewPCG(seed, uint64(retention))), s: NewStore(WithRetention(retention))}
				type kept struct {
					snap *Snapshot
					rows []Order
				}
				var old []kept
				prev := w.s.Snapshot()
				checkRows(t, "empty", prev.Orders, nil)
				for step := range 300 {
					switch op := w.r.IntN(20); {
					case op < 6:
						w.add(1 + w.r.IntN(4))
					case op == 6:
						w.add(200 + w.r.IntN(400)) // many in one snapshot
					case op < 12:
						w.change(1 + w.r.IntN(10))
					case op < 16:
						w.close(1+w.r.IntN(5), false)
					case op < 18:
						w.close(chunkSize+w.r.IntN(2*chunkSize), true)
					case op == 18:
						w.close(len(w.open), w.r.IntN(2) == 0) // all of them
					}
					if w.r.IntN(3) == 0 {
						continue // fold on: the next snapshot gathers more
					}
					snap := w.s.Snapshot()
					checkRows(t, fmt.Sprintf("step %d", step), snap.Orders, wantRows(w.s))
					checkChanges(t, snap.Orders, prev.Orders)
					if step%5 == 0 {
						old = append(old, kept{snap, values(snap.Orders)})
					}
					prev = snap
				}
				for i, k := range old {
					checkRows(t, fmt.Sprintf("earlier snapshot %d", i), k.snap.Orders, k.rows)
				}
			})
		}
	}
}

// TestOrderRowsBuild: NewOrderRows, Append and the readers on rows made
// outside a store, across chunk boundaries.
func TestOrderRowsBuild(t *testing.T) {
	var rows []*Order
	for i := range 3*chunkSize + 5 {
		rows = append(rows, &Order{Market: MarketSpot, OrderID: strconv.Itoa(i + 1)})
	}
	want := func(n int) []Order {
		out := make([]Order, n)
		for i := range out {
			out[i] = *rows[i]
		}
		return out
	}
	checkRows(t, "zero", OrderRows{}, nil)
	a := NewOrderRows(rows[:chunkSize-1]...)
	checkRows(t, "one short of a chunk", a, want(chunkSize-1))
	b := a.Append(rows[chunkSize-1 : 2*chunkSize+3]...)
	checkRows(t, "appended", b, want(2*chunkSize+3))
	checkRows(t, "appended to (unchanged)", a, want(chunkSize-1))
	c := b.Append(rows[2*chunkSize+3:]...)
	checkRows(t, "appended again", c, want(len(rows)))
	if !c.Same(c) || c.Same(b) || !(OrderRows{}).Same(OrderRows{}) {
		t.Error("Same is wrong")
	}
	n := 0
	for start, chunk := range c.Chunks() {
		if start != n || c.At(start) != chunk[0] {
			t.Fatalf("chunk at %d, want %d", start, n)
		}
		n += len(chunk)
	}
	if n != c.Len() || len(c.Slice(3, 3)) != 0 {
		t.Errorf("chunks cover %d rows, want %d", n, c.Len())
	}
	for i, o := range c.All() {
		if i == 10 {
			break
		}
		if o != rows[i] {
			t.Fatalf("All()[%d] = %v", i, o)
		}
	}
}

// TestOrderRowsJSON: OrderRows encode exactly as the []*Order they hold,
// compact and indented, with and without HTML escaping, and decode back.
func TestOrderRowsJSON(t *testing.T) {
	lev, cl, avg := "20", true, "0.1<2>&3"
	var rows []*Order
	for i := range chunkSize + 3 {
		o := &Order{Market: MarketSpot, Symbol: "ETH<BTC>", OrderID: strconv.Itoa(i), ClientOrderID: "a&b\"c\u2028é", Status: "NEW",
			AvgPrice: &avg, Created: int64(i)}
		if i%3 == 0 {
			o.Market, o.Leverage, o.Close = MarketContract, &lev, &cl
		}
		rows = append(rows, o)
	}
	for _, n := range []int{0, 1, len(rows)} {
		for _, indent := range []string{"", "  "} {
			for _, esc := range []bool{false, true} {
				enc := func(v any) string {
					var buf bytes.Buffer
					e := json.NewEncoder(&buf)
					e.SetEscapeHTML(esc)
					e.SetIndent("", indent)
					if err := e.Encode(v); err != nil {
						t.Fatal(err)
					}
					return buf.String()
				}
				got := enc(struct{ Orders OrderRows }{NewOrderRows(rows[:n]...)})
				want := enc(struct{ Orders []*Order }{append([]*Order{}, rows[:n]...)})
				if got != want {
					t.Fatalf("n=%d indent=%q escape=%v: got\n%s\nwant\n%s", n, indent, esc, got, want)
				}
				var back struct{ Orders OrderRows }
				if err := json.Unmarshal([]byte(got), &back); err != nil || back.Orders.Len() != n {
					t.Fatalf("decode: %v, %d rows", err, back.Orders.Len())
				}
				if n > 0 && !reflect.DeepEqual(*back.Orders.At(n - 1), *rows[n-1]) {
					t.Fatalf("decoded %+v, want %+v", *back.Orders.At(n - 1), *rows[n-1])
				}
			}
		}
	}
}

// TestRowsEditChunks: the edits' chunk upkeep, case by case: rows added
// in order fill their chunks; an emptied chunk goes; a chunk under a
// quarter full joins its next neighbour, or its previous one when the
// next is full; earlier rows never change.
func TestRowsEditChunks(t *testing.T) {
	row := func(i int) *Order { return &Order{Market: MarketSpot, OrderID: strconv.Itoa(i)} }
	var model []Order
	sizes := func(r OrderRows) []int {
		var out []int
		for _, c := range r.chunks {
			out = append(out, len(c.rows))
		}
		return out
	}
	e := OrderRows{}.edit(1)
	for i := 1; i <= 3*chunkSize; i++ {
		e.insert(mSpot, row(i))
		model = append(model, *row(i))
	}
	full := e.done()
	checkRows(t, "in order", full, model)
	if got := sizes(full); !slices.Equal(got, []int{chunkSize, chunkSize, chunkSize}) {
		t.Fatalf("chunks = %v, want three full ones", got)
	}
	del := func(r OrderRows, gen uint64, ids ...int) OrderRows {
		e := r.edit(gen)
		for _, id := range ids {
			e.delete(mSpot, strconv.Itoa(id))
			model = slices.DeleteFunc(model, func(o Order) bool { return o.OrderID == strconv.Itoa(id) })
		}
		return e.done()
	}
	span := func(from, to int) []int {
		var out []int
		for i := from; i <= to; i++ {
			out = append(out, i)
		}
		return out
	}
	a := del(full, 2, span(1, chunkSize-28)...) // first chunk down to 28 rows: its next is full
	checkRows(t, "first chunk shrunk", a, model)
	if got := sizes(a); !slices.Equal(got, []int{28, chunkSize, chunkSize}) {
		t.Fatalf("chunks = %v", got)
	}
	b := del(a, 3, span(chunkSize+1, 2*chunkSize-31)...) // second down to 31: joins the first
	checkRows(t, "second chunk joined the first", b, model)
	if got := sizes(b); !slices.Equal(got, []int{59, chunkSize}) {
		t.Fatalf("chunks = %v", got)
	}
	c := del(b, 4, span(2*chunkSize+1, 3*chunkSize)...) // the last chunk, whole
	checkRows(t, "last chunk gone", c, model)
	if got := sizes(c); !slices.Equal(got, []int{59}) {
		t.Fatalf("chunks = %v", got)
	}
	checkRows(t, "the full rows after the edits", full, values(NewOrderRows(func() []*Order {
		var out []*Order
		for i := 1; i <= 3*chunkSize; i++ {
			out = append(out, row(i))
		}
		return out
	}()...)))
}
