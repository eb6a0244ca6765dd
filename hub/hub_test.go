package hub

import "testing"

// TestSubscribedAndJoined: Subscribed follows the subscriptions, and
// each Subscribe leaves one coalesced notice on Joined.
func TestSubscribedAndJoined(t *testing.T) {
	var h Hub[int]
	joined := h.Joined()
	if h.Subscribed() {
		t.Fatal("Subscribed with no reader")
	}
	_, unsub1 := h.Subscribe()
	_, unsub2 := h.Subscribe()
	if !h.Subscribed() {
		t.Fatal("not Subscribed with two readers")
	}
	select {
	case <-joined:
	default:
		t.Fatal("no Joined notice after Subscribe")
	}
	select {
	case <-joined:
		t.Fatal("two Joined notices: want them coalesced")
	default:
	}
	if h.Joined() != joined {
		t.Error("Joined returned a new channel")
	}
	unsub1()
	if !h.Subscribed() {
		t.Error("not Subscribed with one reader left")
	}
	unsub2()
	if h.Subscribed() {
		t.Error("Subscribed after every reader left")
	}
}
