package rest

import "context"

// CreateListenKey starts a user data stream (POST
// /openapi/v1/userDataStream) and returns its listenKey.
func (c *Client) CreateListenKey(ctx context.Context) (string, error) {
	var w struct {
		ListenKey string `json:"listenKey"`
	}
	if err := c.call(ctx, routeCreateListen, nil, &w); err != nil {
		return "", err
	}
	return w.ListenKey, nil
}

// KeepAliveListenKey extends a listenKey by 60 minutes (PUT). An unknown
// or closed key fails with an error matching ErrInvalidListenKey.
func (c *Client) KeepAliveListenKey(ctx context.Context, key string) error {
	p := &params{}
	return c.call(ctx, routeKeepAlive, p.add("listenKey", key), nil)
}

// CloseListenKey closes a user data stream (DELETE).
func (c *Client) CloseListenKey(ctx context.Context, key string) error {
	p := &params{}
	return c.call(ctx, routeCloseListen, p.add("listenKey", key), nil)
}
