package protocol

// Regenerate the wire types with protoc, protoc-gen-go and protoc-gen-go-grpc
// on PATH; the generated code is committed, so building needs none of them.
//go:generate protoc --go_out=pb --go_opt=paths=source_relative --go-grpc_out=pb --go-grpc_opt=paths=source_relative modkit.proto
