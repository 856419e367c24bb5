package jsoncheck

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modkit/modkit/internal/words"
)

// Len returns the length of a string value in Unicode code points, the
// length JSON Schema's minLength and maxLength count.
func Len(s []byte) int { return utf8.RuneCount(s) }

// Format checks a string value against a format name: date-time, date,
// email, uri or uuid. Unknown formats accept every string.
func Format(format string, s []byte) bool {
	switch format {
	case "date-time":
		return isDateTime(string(s))
	case "date":
		return isDate(string(s))
	case "email":
		// Most addresses are plain ones, checked without net/mail's
		// allocations.
		return isPlainEmail(string(s)) || isEmail(string(s))
	case "uri":
		return isURI(string(s))
	case "uuid":
		return isUUID(string(s))
	}
	if _, ok := words.GoRanges[format]; ok {
		return textInRange(format, string(s))
	}
	return true
}

// textInRange reports whether a number written as a string, as ",string"
// fields take it, fits the Go type behind format. Text that is no number
// at all is left to the pattern such fields carry.
func textInRange(format, s string) bool {
	var err error
	switch format {
	case "float":
		_, err = strconv.ParseFloat(s, 32)
	case "double":
		_, err = strconv.ParseFloat(s, 64)
	default:
		if !isDecimal(s) {
			return true
		}
		return inRange(format, parseNum([]byte(s)))
	}
	return !errors.Is(err, strconv.ErrRange)
}

func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// inRange reports whether the Go type behind format (int8 … uint64,
// float, double) holds the number n.
func inRange(format string, n Num) bool {
	switch format {
	case "float", "double":
		if n.zero || n.point <= 30 {
			return true
		}
		bits := 64
		if format == "float" {
			bits = 32
		}
		if n.point > 400 {
			return false
		}
		_, err := strconv.ParseFloat(string(n.raw), bits)
		return !errors.Is(err, strconv.ErrRange)
	}
	r, ok := words.GoRanges[format]
	if !ok {
		return true
	}
	return n.Cmp(r[0]) >= 0 && n.Cmp(r[1]) <= 0
}

// formatValue is jsontree.FormatValue: whether a decoded JSON value (a
// string, or a number as json.Number) is in the format.
func formatValue(format string, v any) bool {
	switch v := v.(type) {
	case string:
		return Format(format, []byte(v))
	case json.Number:
		if _, ok := words.GoRanges[format]; ok {
			return inRange(format, parseNum([]byte(v)))
		}
	}
	return true
}

// isGoTime reports whether raw, the contents of a JSON string as written,
// is a date-time Go's time.Time decodes: RFC 3339 with an upper-case T and
// Z, no leap second, no escapes.
func isGoTime(raw []byte) bool {
	var buf [64]byte
	q := append(append(append(buf[:0], '"'), raw...), '"')
	var t time.Time
	return t.UnmarshalJSON(q) == nil
}

// isDateTime reports whether s is an RFC 3339 date-time: a date, "T", a
// time with seconds, optional fraction and a zone. A leap second is valid
// only at 23:59:60 UTC.
func isDateTime(s string) bool {
	if len(s) < 20 || (s[10] != 'T' && s[10] != 't') {
		return false
	}
	return isDate(s[:10]) && isTime(s[11:])
}

// twoDigits parses s[i:i+2] as a number in [lo, hi].
func twoDigits(s string, i, lo, hi int) (int, bool) {
	n, err := strconv.Atoi(s[i : i+2])
	return n, err == nil && n >= lo && n <= hi
}

func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := twoDigits(s, 0, 0, 23)
	m, ok2 := twoDigits(s, 3, 0, 59)
	sec, ok3 := twoDigits(s, 6, 0, 60)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	rest := s[8:]
	if rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return false
		}
		rest = rest[i:]
	}
	switch {
	case rest == "":
		return false
	case rest == "Z" || rest == "z":
	default:
		if len(rest) != 6 || rest[3] != ':' || (rest[0] != '+' && rest[0] != '-') {
			return false
		}
		zh, ok1 := twoDigits(rest, 1, 0, 23)
		zm, ok2 := twoDigits(rest, 4, 0, 59)
		if !ok1 || !ok2 {
			return false
		}
		off := zh*60 + zm
		if rest[0] == '+' {
			off = -off
		}
		utc := ((h*60+m+off)%(24*60) + 24*60) % (24 * 60)
		h, m = utc/60, utc%60
	}
	return sec != 60 || (h == 23 && m == 59)
}

// isDate reports whether s is a full date, YYYY-MM-DD, that exists.
func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// isEmail reports whether s is an email address: a local part of at most
// 64 bytes, "@", and a host name or bracketed IP address.
func isEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 || at > 64 {
		return false
	}
	domain := s[at+1:]
	if len(domain) >= 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		ip := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(ip, "IPv6:"); ok {
			return isIPv6(v6)
		}
		return isIPv4(ip)
	}
	if !isHostname(domain) {
		return false
	}
	_, err := mail.ParseAddress(s)
	return err == nil
}

// isPlainEmail reports whether s is an email address whose local part and
// host name are dot-atoms of ASCII characters: a subset of what isEmail
// accepts (net/mail parses such an address whole), checked without
// allocating.
func isPlainEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	return len(s) <= 254 && at >= 0 && at <= 64 &&
		isDotAtom(s[:at]) && isDotAtom(s[at+1:]) && isHostname(s[at+1:])
}

// isDotAtom reports whether s is an RFC 5322 dot-atom of ASCII atext:
// printable characters other than specials, in runs that dots separate.
func isDotAtom(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.':
			if s[i-1] == '.' {
				return false
			}
		case c < '!' || c > '~' || strings.IndexByte(`()<>[]:;@\,"`, c) >= 0:
			return false
		}
	}
	return true
}

func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 || (s != "" && s[0] == '-') {
		return false
	}
	for { // the labels, split by hand: an iterator would move s to the heap
		label, rest, more := strings.Cut(s, ".")
		if len(label) < 1 || len(label) > 63 || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
		if !more {
			return true
		}
		s = rest
	}
}

func isIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || (n != 0 && p[0] == '0') {
			return false
		}
	}
	return true
}

func isIPv6(s string) bool {
	return strings.Contains(s, ":") && net.ParseIP(s) != nil
}

// isURI reports whether s is an absolute URI; an IPv6 host must be
// bracketed and valid.
func isURI(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if host := u.Hostname(); strings.Contains(host, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") || !isIPv6(host) {
			return false
		}
	}
	return u.IsAbs()
}

// isUUID reports whether s is a UUID in its hyphenated hex form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			b := s[i]
			if !(b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F') {
				return false
			}
		}
	}
	return true
}

// Base64 reports whether s is standard base64, as encoding/json decodes
// []byte (line breaks are ignored).
func Base64(s []byte) bool {
	_, err := base64.StdEncoding.DecodeString(string(s))
	return err == nil
}
