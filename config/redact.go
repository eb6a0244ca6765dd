package config

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
)

// redactURL returns s with any credentials of a URL's authority (the
// "user:password@" before its host) replaced by "REDACTED@", so that an
// error or a log line can name a URL without the secret typed into it. It
// works on text that does not parse as a URL too; other text is returned
// unchanged.
func redactURL(s string) string {
	start := 0
	if i := strings.Index(s, "://"); i >= 0 {
		start = i + len("://")
	} else if strings.HasPrefix(s, "//") {
		start = 2
	}
	auth := s[start:]
	if end := strings.IndexAny(auth, "/?#"); end >= 0 {
		auth = auth[:end]
	}
	at := strings.LastIndex(auth, "@")
	if at < 0 {
		return s
	}
	return s[:start] + "REDACTED" + s[start+at:]
}

// Longest unknown config key shown, and most digits in one: a longer or
// more random-looking name may be a secret pasted into the file.
const (
	maxShownKey    = 32
	maxShownDigits = 4
)

// shownKey is how an unknown config key is named in an error: the key
// itself when each dotted part looks like a setting or table name, else
// only its length, for a key that may be a secret pasted into the file.
func shownKey(k toml.Key) string {
	for _, part := range k {
		if !looksLikeName(part) {
			return "<a key of " + strconv.Itoa(len(k.String())) + " characters, not shown: it may be a secret>"
		}
	}
	return k.String()
}

// looksLikeName reports whether part is short, of letters, digits, '_'
// and '-', with few digits, and not a mix of upper and lower case letters
// and digits as generated keys are.
func looksLikeName(part string) bool {
	if part == "" || len(part) > maxShownKey {
		return false
	}
	var upper, lower, digits int
	for _, r := range part {
		switch {
		case unicode.IsUpper(r) && r < unicode.MaxASCII:
			upper++
		case unicode.IsLower(r) && r < unicode.MaxASCII:
			lower++
		case r >= '0' && r <= '9':
			digits++
		case r == '_' || r == '-':
		default:
			return false
		}
	}
	return digits <= maxShownDigits && (digits == 0 || upper == 0 || lower == 0)
}
