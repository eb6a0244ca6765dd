package ui

import (
	"context"
	"time"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
	"bhtop/upstream"
)

// Backend is what the dashboard reads and asks of the live account: the
// state snapshots, the connection status, the events log, and the
// stream's own actions. stream.Session implements it; in the dashboard's
// tests a real session against the in-process simulator does.
type Backend interface {
	// Hub gives the latest state snapshot and coalesced change notices.
	Hub() *state.Hub
	// Status is the connection status for the header and status line.
	Status() upstream.Status
	// Notes returns the events-log lines after seq, and the newest seq.
	Notes(after uint64) ([]upstream.Note, uint64)
	// Keepalive sends PUT /openapi/v1/userDataStream now and returns the
	// key's new expiry as the backend assumes it (the service's answer
	// gives none; the dashboard does not show it).
	Keepalive(ctx context.Context) (time.Time, error)
	// Resync takes the REST snapshots again and folds them in.
	Resync(ctx context.Context) error
	// Symbols lists the tradable symbols and filters from brokerInfo.
	Symbols(ctx context.Context) ([]rest.Symbol, error)
}

// Trader places and cancels orders. The dashboard gets a nil Trader in
// read-only mode and then has no way at all to send one. Each call sends
// at most one request; the result's Outcome tells accepted, rejected and
// unknown apart.
type Trader interface {
	PlaceOrder(ctx context.Context, req rest.OrderRequest) rest.OrderResult
	CancelOrder(ctx context.Context, req rest.CancelRequest) rest.OrderResult
	// PlaceContractOrder sends one contract order.
	PlaceContractOrder(ctx context.Context, req rest.ContractOrderRequest) rest.OrderResult
	// Contracts lists the contract symbols and filters from brokerInfo.
	Contracts(ctx context.Context) ([]rest.ContractSymbol, error)
	// CancelAll cancels every target, each with at most one request,
	// calling progress after each request, and returns the summary.
	CancelAll(ctx context.Context, targets []actions.Target, progress func(actions.Summary)) actions.Summary
}
