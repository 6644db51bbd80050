// Command baseline is the yardstick of the load benchmark (.ci/bench): a
// bare net/http server that decodes a NewPlant and echoes {name, tag},
// with none of plantmock's checks. With --delay it answers that much
// later, and stands for a real service behind plantmock's proxy
// (BENCH_PROXY). It is not part of plantmock.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"
)

type newPlant struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Tag  string `json:"tag,omitempty"`
}

type plant struct {
	Name string `json:"name"`
	Tag  string `json:"tag,omitempty"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "host:port to listen on")
	delay := flag.Duration("delay", 0, "how long to wait before each answer")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("baseline: serving on http://%s\n", ln.Addr())
	http.HandleFunc("POST /plants", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(*delay)
		var p newPlant
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":400,"message":%q}`, err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(plant{Name: p.Name, Tag: p.Tag})
	})
	log.Fatal(http.Serve(ln, nil))
}
