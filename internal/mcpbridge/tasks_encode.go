package mcpbridge

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/modkit/modkit/internal/taskstore"
)

// appendTaskFields appends the JSON object of t's taskFields, as
// json.Marshal(fieldsOf(t, resultType)) writes it, without reflection:
// every task call and every poll answers with it.
func appendTaskFields(dst []byte, t *taskstore.Task, resultType string) []byte {
	dst = append(dst, `{"resultType":`...)
	dst = appendJSONString(dst, resultType)
	dst = append(dst, `,"taskId":`...)
	dst = appendJSONString(dst, t.ID)
	dst = append(dst, `,"status":`...)
	dst = appendJSONString(dst, string(t.Status))
	if t.StatusMessage != "" {
		dst = append(dst, `,"statusMessage":`...)
		dst = appendJSONString(dst, t.StatusMessage)
	}
	dst = append(dst, `,"createdAt":"`...)
	dst = t.CreatedAt.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, `","lastUpdatedAt":"`...)
	dst = t.UpdatedAt.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, `","ttlMs":`...)
	dst = strconv.AppendInt(dst, t.TTL.Milliseconds(), 10)
	dst = append(dst, `,"pollIntervalMs":`...)
	dst = strconv.AppendInt(dst, taskPollInterval.Milliseconds(), 10)
	return append(dst, '}')
}

// appendJSONString appends s as a JSON string, as encoding/json writes it:
// ASCII here, escaped as it escapes (quotes, backslashes, control
// characters, and <, > and & for HTML), anything else through
// json.Marshal. A tool's text is often JSON itself, full of quotes.
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			data, _ := json.Marshal(s)
			return append(dst, data...)
		}
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			const hex = "0123456789abcdef"
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
