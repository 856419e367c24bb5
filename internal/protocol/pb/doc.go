// Package pb holds the wire types and gRPC service of modkit.proto, generated
// by protoc-gen-go and protoc-gen-go-grpc. Regenerate with go generate in
// package protocol; do not edit.
package pb
