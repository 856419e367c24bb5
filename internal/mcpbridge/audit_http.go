package mcpbridge

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/audit"
)

// statusWriter notes a response's status and the start of its body.
type statusWriter struct {
	http.ResponseWriter
	status int
	head   []byte // the body's first bytes, up to maxSniff
	// beforeAuth says the request was refused with 429 by the
	// authorization check (refusals).
	beforeAuth bool
}

// maxSniff is how much of a response statusWriter keeps: enough for a
// JSON-RPC error, and for most task answers.
const maxSniff = 64 << 10

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	if room := maxSniff - len(s.head); room > 0 {
		s.head = append(s.head, b[:min(room, len(b))]...)
	}
	return s.ResponseWriter.Write(b)
}

// Flush and Unwrap let the handlers behind flush each event.
func (s *statusWriter) Flush() {
	if fl, ok := s.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// outcome is how the request ended, as its response tells: refused with
// an HTTP error status, failed with a JSON-RPC error, or completed.
func (s *statusWriter) outcome() string {
	switch {
	case s.status >= 400:
		return audit.Refused
	case len(s.head) < maxSniff && bytes.HasPrefix(bytes.TrimSpace(s.head), []byte("{")):
		var v struct {
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(s.head, &v) == nil && len(v.Error) > 0 && string(v.Error) != "null" {
			return audit.Failed
		}
	}
	return audit.Completed
}

// taskID is the id of the task a response names, if any: a tools/call
// that became a task answers with it.
func (s *statusWriter) taskID() string {
	var v struct {
		Result struct {
			TaskID string `json:"taskId"`
		} `json:"result"`
	}
	if len(s.head) < maxSniff && json.Unmarshal(s.head, &v) == nil {
		return v.Result.TaskID
	}
	return ""
}

// auditRefused writes the record of a request for m (of body) the
// handler refused with status, when m's method is audited.
func (h *HTTPHandler) auditRefused(req *http.Request, m *httpMessage, body []byte, status int, start time.Time) {
	if h.audit == nil || !auditedMethods[m.Method] {
		return
	}
	h.audit.Write(refusedRecord(req, m, body, status, start, h.audit.Arguments()))
}

// auditTask serves a request of the tasks path (serve, which reports
// whether it served it) and writes its record: the outcome of the request,
// not of the task, which a later tasks/get tells.
func (h *HTTPHandler) auditTask(w http.ResponseWriter, req *http.Request, m *httpMessage, body []byte, start time.Time, serve func(http.ResponseWriter) bool) bool {
	if h.audit == nil || !auditedMethods[m.Method] {
		return serve(w)
	}
	sw := &statusWriter{ResponseWriter: w}
	if !serve(sw) {
		return false
	}
	rec := newRecord(req.Context(), m.Method)
	rec.Time = start
	describe(rec, m, body, h.audit.Arguments())
	rec.Outcome = sw.outcome()
	if rec.Task == "" {
		rec.Task = sw.taskID()
	}
	if rec.Outcome == audit.Refused {
		rec.Status = sw.status
	}
	rec.TraceID = traceID(req.Context())
	rec.Finish()
	h.audit.Write(rec)
	return true
}

// auditUnauthorized writes a record of each request for an audited
// method that next, the authorization check, refuses with 401 (or 429,
// refusals) before the handler reads it: it reads the body first,
// for the method.
func (h *HTTPHandler) auditUnauthorized(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost || req.Body == nil {
			next.ServeHTTP(w, req)
			return
		}
		start := time.Now()
		head, err := io.ReadAll(io.LimitReader(req.Body, mcp.DefaultMaxRequestBodyBytes+1))
		req.Body = readCloser{io.MultiReader(bytes.NewReader(head), req.Body), req.Body}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, req)
		refused := sw.status == http.StatusUnauthorized || (sw.status == http.StatusTooManyRequests && sw.beforeAuth)
		if !refused || err != nil || len(head) > mcp.DefaultMaxRequestBodyBytes {
			return
		}
		if m, code, _ := checkBody(head); code == 0 {
			h.auditRefused(req, &m, head, sw.status, start)
		}
	})
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}
