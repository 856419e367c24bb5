//go:build !linux

package probe

// Refused is empty: only Linux has the filter.
func Refused() []Attempt { return nil }

// Sockets is empty: only Linux has the filter.
func Sockets() []Attempt { return nil }

// Allowed is empty: only Linux has the filter.
func Allowed() []Attempt { return nil }

// Capabilities is empty: capability sets are Linux's.
func Capabilities() map[string]uint64 { return nil }
