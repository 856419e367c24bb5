package jsoncheck

import (
	"math/big"
)

// Num is a JSON number, kept as its text and compared exactly as a decimal.
type Num struct {
	raw []byte
	neg bool
	// The value is 0.d1d2…dn × 10^point, where digits are the significant
	// digits (no leading or trailing zeros) taken from intPart+fracPart.
	intPart, fracPart []byte
	lead, n           int // leading zeros skipped, significant digit count
	point             int
	zero              bool
}

// maxExp bounds exponents so that absurd ones cannot overflow.
const maxExp = 1 << 40

func parseNum(raw []byte) Num {
	n := Num{raw: raw}
	i := 0
	if i < len(raw) && raw[i] == '-' {
		n.neg = true
		i++
	}
	j := i
	for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
		j++
	}
	n.intPart = raw[i:j]
	i = j
	if i < len(raw) && raw[i] == '.' {
		i++
		j = i
		for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
			j++
		}
		n.fracPart = raw[i:j]
		i = j
	}
	exp := 0
	if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
		i++
		eneg := false
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			eneg = raw[i] == '-'
			i++
		}
		for ; i < len(raw); i++ {
			if exp < maxExp {
				exp = exp*10 + int(raw[i]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	total := len(n.intPart) + len(n.fracPart)
	lead := 0
	for lead < total && n.digit(lead) == '0' {
		lead++
	}
	if lead == total {
		n.zero = true
		return n
	}
	last := total
	for n.digit(last-1) == '0' {
		last--
	}
	n.lead = lead
	n.n = last - lead
	n.point = len(n.intPart) - lead + exp
	return n
}

// digit returns digit i of intPart+fracPart.
func (n *Num) digit(i int) byte {
	if i < len(n.intPart) {
		return n.intPart[i]
	}
	return n.fracPart[i-len(n.intPart)]
}

// sig returns significant digit i, from 0.
func (n *Num) sig(i int) byte { return n.digit(n.lead + i) }

// String returns the number as written.
func (n Num) String() string { return string(n.raw) }

// IsInt reports whether the number has no fractional part.
func (n Num) IsInt() bool { return n.zero || n.point >= n.n }

// plainInt reports whether the number is written as a plain integer.
func (n Num) plainInt() bool {
	return len(n.fracPart) == 0 && len(n.raw) == len(n.intPart)+boolInt(n.neg)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// appendInt appends the integer value of n, which IsInt, as plain digits.
func (n Num) appendInt(dst []byte) []byte {
	if n.zero {
		return append(dst, '0')
	}
	if n.point > 400 {
		// Out of every Go integer's range: keep the text, decoding fails.
		return append(dst, n.raw...)
	}
	if n.neg {
		dst = append(dst, '-')
	}
	for i := 0; i < n.n; i++ {
		dst = append(dst, n.sig(i))
	}
	for i := n.n; i < n.point; i++ {
		dst = append(dst, '0')
	}
	return dst
}

// Cmp compares n with the JSON number lit: -1, 0 or +1.
func (n Num) Cmp(lit string) int {
	m := parseNum([]byte(lit))
	return cmpNum(&n, &m)
}

func cmpNum(a, b *Num) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	c := cmpAbs(a, b)
	if sa < 0 {
		return -c
	}
	return c
}

func (n *Num) sign() int {
	switch {
	case n.zero:
		return 0
	case n.neg:
		return -1
	}
	return 1
}

func cmpAbs(a, b *Num) int {
	if a.point != b.point {
		if a.point < b.point {
			return -1
		}
		return 1
	}
	for i := 0; i < a.n && i < b.n; i++ {
		da, db := a.sig(i), b.sig(i)
		if da != db {
			if da < db {
				return -1
			}
			return 1
		}
	}
	switch {
	case a.n < b.n:
		return -1
	case a.n > b.n:
		return 1
	}
	return 0
}

// MultipleOf reports whether n is an integer multiple of the positive JSON
// number lit.
func (n Num) MultipleOf(lit string) bool {
	if n.zero {
		return true
	}
	m := parseNum([]byte(lit))
	if m.zero {
		return false
	}
	// n / m = (N × 10^(pn-len N)) / (M × 10^(pm-len M)).
	x := n.bigDigits()
	y := m.bigDigits()
	e := (n.point - n.n) - (m.point - m.n)
	ten := big.NewInt(10)
	if e > 100000 {
		// 10^e supplies every factor 2 and 5 of y: the rest must divide x.
		two, five := big.NewInt(2), big.NewInt(5)
		r := new(big.Int)
		for _, f := range []*big.Int{two, five} {
			for r.Rem(y, f).Sign() == 0 {
				y.Quo(y, f)
			}
		}
		return r.Rem(x, y).Sign() == 0
	}
	if e < -100000 {
		return false
	}
	if e >= 0 {
		x.Mul(x, new(big.Int).Exp(ten, big.NewInt(int64(e)), nil))
	} else {
		y.Mul(y, new(big.Int).Exp(ten, big.NewInt(int64(-e)), nil))
	}
	return new(big.Int).Rem(x, y).Sign() == 0
}

func (n *Num) bigDigits() *big.Int {
	b := make([]byte, n.n)
	for i := range b {
		b[i] = n.sig(i)
	}
	x, _ := new(big.Int).SetString(string(b), 10)
	return x
}

// Int64 returns the value of an integer within the int64 range.
func (n Num) Int64() int64 {
	u := n.magnitude()
	if n.neg {
		return -int64(u)
	}
	return int64(u)
}

// Uint64 returns the value of a non-negative integer within the uint64
// range.
func (n Num) Uint64() uint64 { return n.magnitude() }

// magnitude returns |n| for an integer that fits in a uint64.
func (n *Num) magnitude() uint64 {
	if n.zero {
		return 0
	}
	var u uint64
	for i := 0; i < n.point; i++ {
		u *= 10
		if i < n.n {
			u += uint64(n.sig(i) - '0')
		}
	}
	return u
}
