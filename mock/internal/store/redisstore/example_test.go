package redisstore_test

import (
	"context"
	"fmt"
	"log"

	"github.com/plantmock/plantmock/mock/internal/store/redisstore"
)

// Two mock processes given the same URL and prefix serve the same
// resources.
func ExampleNew() {
	ctx := context.Background()
	s, err := redisstore.New(ctx, redisstore.Options{
		URL:    "redis://localhost:6379/0",
		Prefix: "plantmock:",
		Max:    10_000,
	})
	if err != nil {
		log.Fatal(err) // wraps redisstore.ErrUnavailable when Redis does not answer
	}
	defer s.Close()
	key, err := s.Create(ctx, "", "/plants", "", func(key string) ([]byte, error) {
		return []byte(`{"id":"` + key + `","name":"Monstera"}`), nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created", key)
}
