package mcpbridge

import (
	"encoding/json"
	"strconv"
	"time"

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

// appendJSONString appends s as a JSON string: as it is, quoted, when it
// is printable ASCII that needs no escape, else as encoding/json writes it.
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			data, _ := json.Marshal(s)
			return append(dst, data...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
