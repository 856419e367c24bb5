package sandbox

import (
	"fmt"
	"maps"
	"slices"

	"golang.org/x/net/bpf"
)

// program assembles classic BPF with named jump targets, which
// golang.org/x/net/bpf leaves to its caller as counts of instructions to
// skip.
type program struct {
	ins    []bpf.Instruction
	labels map[string]int
	jumps  map[int][2]string // instruction index -> targets if true, if false ("" is the next)
}

func newProgram() *program {
	return &program{labels: map[string]int{}, jumps: map[int][2]string{}}
}

// label names the next instruction.
func (p *program) label(name string) { p.labels[name] = len(p.ins) }

// load loads the 32-bit word at offset off of struct seccomp_data.
func (p *program) load(off uint32) {
	p.ins = append(p.ins, bpf.LoadAbsolute{Off: off, Size: 4})
}

// and masks the loaded word.
func (p *program) and(mask uint32) {
	p.ins = append(p.ins, bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: mask})
}

// jump goes to yes when the loaded word passes cond against val, else to
// no; "" is the next instruction.
func (p *program) jump(cond bpf.JumpTest, val uint32, yes, no string) {
	p.jumps[len(p.ins)] = [2]string{yes, no}
	p.ins = append(p.ins, bpf.JumpIf{Cond: cond, Val: val})
}

// dispatch jumps to the label cases gives the loaded word, or to
// otherwise for a word cases lacks, by a binary search whose leaves
// compare one or two values: any word is decided in about
// log2(len(cases)) + 2 jumps instead of one per case.
func (p *program) dispatch(cases map[uint32]string, otherwise string) {
	p.search(slices.Sorted(maps.Keys(cases)), cases, otherwise)
}

func (p *program) search(vals []uint32, cases map[uint32]string, otherwise string) {
	if len(vals) <= 2 {
		for i, v := range vals {
			no := ""
			if i == len(vals)-1 {
				no = otherwise
			}
			p.jump(bpf.JumpEqual, v, cases[v], no)
		}
		return
	}
	mid := len(vals) / 2
	upper := fmt.Sprintf("≥%d", vals[mid])
	p.jump(bpf.JumpGreaterOrEqual, vals[mid], upper, "")
	p.search(vals[:mid], cases, otherwise)
	p.label(upper)
	p.search(vals[mid:], cases, otherwise)
}

// ret ends the filter with the action v.
func (p *program) ret(v uint32) { p.ins = append(p.ins, bpf.RetConstant{Val: v}) }

// assemble resolves the labels and returns the raw program.
func (p *program) assemble() ([]bpf.RawInstruction, error) {
	for i, targets := range p.jumps {
		var skips [2]uint8
		for k, name := range targets {
			if name == "" {
				continue
			}
			at, ok := p.labels[name]
			if !ok {
				return nil, fmt.Errorf("seccomp filter: no label %q", name)
			}
			skip := at - i - 1
			if skip < 0 || skip > 255 {
				return nil, fmt.Errorf("seccomp filter: label %q is %d instructions away", name, skip)
			}
			skips[k] = uint8(skip)
		}
		j := p.ins[i].(bpf.JumpIf)
		j.SkipTrue, j.SkipFalse = skips[0], skips[1]
		p.ins[i] = j
	}
	return bpf.Assemble(p.ins)
}
