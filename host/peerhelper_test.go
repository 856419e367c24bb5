package host_test

import (
	"context"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// dialHelperEnv makes the test binary a process that is not the host: it
// dials the socket the variable names, asks the mod to describe itself,
// prints "answered" or "refused: " and the error, and exits.
const dialHelperEnv = "MODKIT_DIAL_HELPER"

func runDialHelper(addr string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := describeOver(ctx, addr)
	if err != nil {
		os.Stdout.WriteString("refused: " + err.Error() + "\n")
	} else {
		os.Stdout.WriteString("answered\n")
	}
	os.Exit(0)
}

// describeOver calls Describe on the mod serving addr, over a connection
// with no credentials of its own.
func describeOver(ctx context.Context, addr string) error {
	conn, err := grpc.NewClient("unix://"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = pb.NewModClient(conn).Describe(ctx, &pb.DescribeRequest{})
	return err
}
