package market

import (
	"bytes"
	"encoding/json"
)

// elements calls fn with the raw bytes of each element of the JSON array
// b, which must already be valid JSON (event.Fields checked the frame it
// came from). It reports false when b is not an array.
func elements(b []byte, fn func(v []byte)) bool {
	return elementsWhile(b, func(v []byte) bool { fn(v); return true })
}

// elementsWhile is elements, stopping early (true: b was checked) once fn
// returns false, so that the elements after it are not even skipped.
func elementsWhile(b []byte, fn func(v []byte) bool) bool {
	i, ok, empty := opening(b, '[', ']')
	if !ok || empty {
		return ok
	}
	for i < len(b) {
		start := i
		i = skipValue(b, i)
		if !fn(b[start:i]) {
			return true
		}
		i = skipWS(b, i)
		if i >= len(b) || b[i] != ',' {
			return i < len(b) && b[i] == ']'
		}
		i = skipWS(b, i+1)
	}
	return false
}

// opening reads the open bracket that must start b (after white space)
// and returns where the first element starts; empty reports the close
// bracket right after it.
func opening(b []byte, open, close byte) (i int, ok, empty bool) {
	i = skipWS(b, 0)
	if i >= len(b) || b[i] != open {
		return i, false, false
	}
	i = skipWS(b, i+1)
	return i, true, i < len(b) && b[i] == close
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the valid JSON value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// skipString returns the end of the string starting at b[i] (its quote).
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// members calls fn with each key (unescaped) and raw value of the JSON
// object b, which must already be valid JSON. It reports false when b is
// not an object. Unlike event.Fields it does not check the syntax again.
func members(b []byte, fn func(k, v []byte)) bool {
	i, ok, empty := opening(b, '{', '}')
	if !ok || empty {
		return ok
	}
	for i < len(b) && b[i] == '"' {
		kEnd := skipString(b, i)
		key := b[i+1 : kEnd-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var s string
			if json.Unmarshal(b[i:kEnd], &s) != nil {
				return false
			}
			key = []byte(s)
		}
		i = skipWS(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		start := i
		i = skipValue(b, i)
		fn(key, b[start:i])
		i = skipWS(b, i)
		if i >= len(b) || b[i] != ',' {
			return i < len(b) && b[i] == '}'
		}
		i = skipWS(b, i+1)
	}
	return false
}
