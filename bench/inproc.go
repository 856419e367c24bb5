package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/bench/internal/echomod"
	"github.com/modkit/modkit/manifest"
)

// decoder validates and decodes the echo payload one way.
type decoder func(data []byte) (echo.Input, error)

// generatedDecoder is modgen's validate-and-decode function for echo.
func generatedDecoder() (decoder, error) {
	dec, ok := echomod.Modkit().Inputs["echo"]
	if !ok {
		return nil, fmt.Errorf("echo mod: no generated decoder for echo")
	}
	return func(data []byte) (echo.Input, error) {
		v, err := dec(data)
		if err != nil {
			return echo.Input{}, err
		}
		in, ok := v.(echo.Input)
		if !ok {
			return echo.Input{}, fmt.Errorf("generated decoder returned %T, want echo.Input", v)
		}
		return in, nil
	}, nil
}

// jsonDecoder is encoding/json alone: no validation.
func jsonDecoder(data []byte) (echo.Input, error) {
	var in echo.Input
	err := json.Unmarshal(data, &in)
	return in, err
}

// schemaDecoder validates with santhosh-tekuri/jsonschema against the echo
// tool's manifest schema, formats asserted, then decodes with encoding/json:
// what a runtime without generated validators does.
func schemaDecoder() (decoder, error) {
	m, err := manifest.Decode(echomod.Modkit().Manifest)
	if err != nil {
		return nil, err
	}
	var schema []byte
	for _, t := range m.Tools {
		if t.Name == "echo" {
			schema = t.InputSchema
		}
	}
	if schema == nil {
		return nil, fmt.Errorf("echo mod manifest has no echo tool")
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	if err := c.AddResource("echo.json", bytes.NewReader(schema)); err != nil {
		return nil, fmt.Errorf("echo schema: %w", err)
	}
	s, err := c.Compile("echo.json")
	if err != nil {
		return nil, fmt.Errorf("echo schema: %w", err)
	}
	return func(data []byte) (echo.Input, error) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return echo.Input{}, err
		}
		if err := s.Validate(v); err != nil {
			return echo.Input{}, err
		}
		return jsonDecoder(data)
	}, nil
}

// checkDecoders makes sure every decoder decodes the payload to the same
// value and refuses the same bad input, so the comparison is like for like.
func checkDecoders(decs map[string]decoder) error {
	want, err := jsonDecoder(echo.Payload)
	if err != nil {
		return err
	}
	wantJSON, _ := json.Marshal(want)
	bad := []byte(`{"message":"","tags":[],"count":2000}`)
	for name, dec := range decs {
		got, err := dec(echo.Payload)
		if err != nil {
			return fmt.Errorf("%s: decode payload: %w", name, err)
		}
		if gotJSON, _ := json.Marshal(got); !bytes.Equal(gotJSON, wantJSON) {
			return fmt.Errorf("%s: decoded %s, want %s", name, gotJSON, wantJSON)
		}
		if name == "encoding/json" {
			continue
		}
		if _, err := dec(bad); err == nil {
			return fmt.Errorf("%s: accepted %s, want an error (empty message, count over 1000)", name, bad)
		}
	}
	return nil
}

// decodeTimes times batches of n decodes and returns µs per decode, one
// value per batch.
func decodeTimes(dec decoder, batches, n int) ([]float64, error) {
	for range n { // warm up
		if _, err := dec(echo.Payload); err != nil {
			return nil, err
		}
	}
	ds := make([]time.Duration, batches)
	for b := range ds {
		start := time.Now()
		for range n {
			if _, err := dec(echo.Payload); err != nil {
				return nil, err
			}
		}
		ds[b] = time.Since(start) / time.Duration(n)
	}
	return micros(ds), nil
}

func pairDecoders(e *env, a, b decoder) (sa, sb *sample, err error) {
	return pair(e.cfg.rounds,
		func(int) ([]float64, error) { return decodeTimes(a, e.cfg.batches, e.cfg.decodes) },
		func(int) ([]float64, error) { return decodeTimes(b, e.cfg.batches, e.cfg.decodes) })
}

func decoders() (generated, schema decoder, err error) {
	if generated, err = generatedDecoder(); err != nil {
		return nil, nil, err
	}
	if schema, err = schemaDecoder(); err != nil {
		return nil, nil, err
	}
	err = checkDecoders(map[string]decoder{"generated": generated, "jsonschema": schema, "encoding/json": jsonDecoder})
	return generated, schema, err
}

func validateVsJSON(_ context.Context, e *env) (row, error) {
	generated, _, err := decoders()
	if err != nil {
		return row{}, err
	}
	a, b, err := pairDecoders(e, generated, jsonDecoder)
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("generated validate + decode", a), latencySide("encoding/json decode", b), roundRatios(a, b), goal{}), nil
}

func jsonschemaVsValidate(_ context.Context, e *env) (row, error) {
	generated, schema, err := decoders()
	if err != nil {
		return row{}, err
	}
	a, b, err := pairDecoders(e, schema, generated)
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("jsonschema + encoding/json", a), latencySide("generated validate + decode", b), roundRatios(a, b), goal{}), nil
}
