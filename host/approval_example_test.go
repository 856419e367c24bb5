package host_test

import (
	"context"
	"fmt"
	"io"

	"github.com/modkit/modkit/host"
)

func ExampleApprover() {
	h, err := host.Load([]string{"testdata/mods/approving"}, &host.Options{CacheDir: cacheDir, Progress: io.Discard})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	// The application shows the reason to the person and reports their
	// answer: here, a decline.
	decline := func(ctx context.Context, req *host.ApprovalRequest) (bool, error) {
		fmt.Println("asked:", req.Reason)
		return false, nil
	}
	res, err := h.Call(context.Background(), &host.CallRequest{Tool: "approving_always", Approver: decline})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status)
	fmt.Println(res.Text)
	// Output:
	// asked: Run approving_always, which changes nothing
	// denied
	// The person declined this call, so approving_always did not run. They were asked: Run approving_always, which changes nothing
}
