package protocol

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"time"
)

// NewJSONLogHandler returns an slog handler writing one JSON object per line
// in the form go-plugin's host parses ("@level", "@message", "@timestamp"),
// so a mod's records are re-logged on the host at their level. Mods create it
// on their real stderr before serving.
func NewJSONLogHandler(w io.Writer, level slog.Leveler) slog.Handler {
	return &jsonHandler{w: w, mu: new(sync.Mutex), level: level}
}

type jsonHandler struct {
	w      io.Writer
	mu     *sync.Mutex
	level  slog.Leveler
	attrs  []slog.Attr
	prefix string
}

func (h *jsonHandler) Enabled(_ context.Context, l slog.Level) bool {
	if h.level == nil {
		return l >= slog.LevelInfo
	}
	return l >= h.level.Level()
}

func hclogLevelName(l slog.Level) string {
	switch {
	case l < slog.LevelDebug:
		return "trace"
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelWarn:
		return "info"
	case l < slog.LevelError:
		return "warn"
	default:
		return "error"
	}
}

func (h *jsonHandler) Handle(_ context.Context, r slog.Record) error {
	m := make(map[string]any, 3+len(h.attrs)+r.NumAttrs())
	add := func(a slog.Attr) bool {
		a.Value = a.Value.Resolve()
		if a.Key == "" {
			return true
		}
		m[h.prefix+a.Key] = attrValue(a.Value)
		return true
	}
	for _, a := range h.attrs {
		m[a.Key] = attrValue(a.Value.Resolve())
	}
	r.Attrs(add)
	m["@level"] = hclogLevelName(r.Level)
	m["@message"] = r.Message
	t := r.Time
	if t.IsZero() {
		t = time.Now()
	}
	m["@timestamp"] = t.Format("2006-01-02T15:04:05.000000Z07:00")
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err = h.w.Write(data)
	return err
}

func attrValue(v slog.Value) any {
	switch v.Kind() {
	case slog.KindGroup:
		g := make(map[string]any)
		for _, a := range v.Group() {
			g[a.Key] = attrValue(a.Value.Resolve())
		}
		return g
	case slog.KindDuration:
		return v.Duration().String()
	case slog.KindTime:
		return v.Time().Format(time.RFC3339Nano)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return err.Error()
		}
		return v.Any()
	default:
		return v.Any()
	}
}

func (h *jsonHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(h.attrs[:len(h.attrs):len(h.attrs)], attrs...)
	for i := len(h.attrs); i < len(c.attrs); i++ {
		c.attrs[i].Key = h.prefix + c.attrs[i].Key
	}
	return &c
}

func (h *jsonHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.prefix = h.prefix + name + "."
	return &c
}
