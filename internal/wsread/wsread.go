// Package wsread reads WebSocket messages into a buffer the caller keeps,
// for the readers of the user stream and the quote socket.
package wsread

import (
	"io"

	"github.com/gorilla/websocket"
)

// Message reads the next message into buf (from its start), growing it
// as needed; the message's bytes are returned in data, also after a
// failed read (what was read), so that the caller can reuse its array.
// It replaces gorilla's ReadMessage, which allocates a new buffer for
// every frame.
func Message(ws *websocket.Conn, buf []byte) (typ int, data []byte, err error) {
	typ, r, err := ws.NextReader()
	if err != nil {
		return typ, buf[:0], err
	}
	data = buf[:0]
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return typ, data, nil
		}
		if err != nil {
			return typ, data, err
		}
	}
}
