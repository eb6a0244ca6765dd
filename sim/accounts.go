package sim

import (
	"math/rand/v2"
	"strconv"

	"bhtop/signer"
)

// AccountKey names one account of the simulator and the key pair that
// reaches it. The secret is the simulator's own, printed for its user.
type AccountKey struct {
	Name      string `json:"name"`
	APIKey    string `json:"apiKey"`
	SecretKey string `json:"secretKey"`
}

// addAccounts creates accounts 2..Options.Accounts, each with the demo
// balances and a key pair drawn from the seed (so a restart with the same
// seed prints the same keys).
func (s *Server) addAccounts() {
	rnd := rand.New(rand.NewPCG(uint64(s.opts.Seed), 0xacc0))
	for i := 2; i <= s.opts.Accounts; i++ {
		a := s.newDemoAccount(strconv.Itoa(i))
		a.contractID = strconv.Itoa(i)
		apiKey, secret := randomKey(rnd), randomKey(rnd)
		k := Key{APIKey: apiKey, Secret: signer.NewSecret(secret)}
		s.extra = append(s.extra, AccountKey{accountName(i), apiKey, secret})
		s.keys[k.APIKey] = &keyInfo{Key: k, account: a}
	}
}

func randomKey(rnd *rand.Rand) string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = listenKeyChars[rnd.IntN(len(listenKeyChars))]
	}
	return string(b)
}

func accountName(i int) string { return "account" + strconv.Itoa(i) }

// Accounts lists every account with its key pair, the first one reached
// by the first configured key (secret is the text given as firstSecret,
// since a signer.Secret is not printed by this package).
func (s *Server) Accounts(firstSecret string) []AccountKey {
	out := []AccountKey{{accountName(1), s.APIKey(), firstSecret}}
	return append(out, s.extra...)
}
