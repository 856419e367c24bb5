package manifest

// form is a hand-written matcher of one regular expression the schema or
// Validate uses for names, ids and hashes: a regexp match is most of the
// time of checking a short string, and a manifest checks dozens.
// TestForms and FuzzForms compare each with package regexp.
type form struct {
	str   func(string) bool
	bytes func([]byte) bool
}

// forms are the matchers by the expressions they match.
var forms = map[string]form{
	`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`:           {isSnake[string], isSnake[[]byte]},
	`^[a-z][a-z0-9_.-]*$`:                     {isModID[string], isModID[[]byte]},
	`^[a-z][a-z0-9_-]*$`:                      {isSlashID[string], isSlashID[[]byte]},
	`^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$`: {isCommandID[string], isCommandID[[]byte]},
	`^[0-9]+\.[0-9]+$`:                        {isMajorMinor[string], isMajorMinor[[]byte]},
	`^sha256:[0-9a-f]{64}$`:                   {isSHA256[string], isSHA256[[]byte]},
	`^[\x21\x23-\x5B\x5D-\x7E]+$`:             {isScope[string], isScope[[]byte]},
}

// mustForm returns the matcher of expr, which forms must hold.
func mustForm(expr string) func(string) bool {
	f, ok := forms[expr]
	if !ok {
		panic("manifest: no form for " + expr)
	}
	return f.str
}

type text interface{ ~string | ~[]byte }

func lower(c byte) bool { return 'a' <= c && c <= 'z' }
func digit(c byte) bool { return '0' <= c && c <= '9' }

// isSnake matches ^[a-z][a-z0-9]*(_[a-z0-9]+)*$.
func isSnake[T text](s T) bool {
	if len(s) == 0 || !lower(s[0]) || s[len(s)-1] == '_' {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case lower(c) || digit(c):
		case c == '_' && s[i-1] != '_':
		default:
			return false
		}
	}
	return true
}

// isModID matches ^[a-z][a-z0-9_.-]*$.
func isModID[T text](s T) bool {
	if len(s) == 0 || !lower(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !lower(c) && !digit(c) && c != '_' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// isSlashID matches ^[a-z][a-z0-9_-]*$.
func isSlashID[T text](s T) bool {
	if len(s) == 0 || !lower(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !lower(c) && !digit(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// isCommandID matches ^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$: slash ids
// joined by single dots.
func isCommandID[T text](s T) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !isSlashID(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// isMajorMinor matches ^[0-9]+\.[0-9]+$.
func isMajorMinor[T text](s T) bool {
	dot := -1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case digit(c):
		case c == '.' && dot < 0:
			dot = i
		default:
			return false
		}
	}
	return dot > 0 && dot < len(s)-1
}

// isSHA256 matches ^sha256:[0-9a-f]{64}$.
func isSHA256[T text](s T) bool {
	const prefix = "sha256:"
	if len(s) != len(prefix)+64 || string(s[:len(prefix)]) != prefix {
		return false
	}
	for i := len(prefix); i < len(s); i++ {
		if c := s[i]; !digit(c) && !('a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// isScope matches ^[\x21\x23-\x5B\x5D-\x7E]+$, an OAuth scope-token.
func isScope[T text](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
