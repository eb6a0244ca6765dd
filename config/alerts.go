package config

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"bhtop/alert"
)

// parseAlerts validates the config file's [[alerts]] tables into rules.
// A bad rule is refused with the file, the line (of the faulty field, else
// of the rule's [[alerts]] header) and what is wrong.
func parseAlerts(path, text string, raw []map[string]any) ([]alert.Rule, error) {
	lines := scanAlertLines(text)
	rules := make([]alert.Rule, 0, len(raw))
	for i, fields := range raw {
		r, err := alert.ParseRule(i+1, fields)
		if err == nil {
			rules = append(rules, r)
			continue
		}
		line := lines.line(i, "")
		var fe *alert.FieldError
		if errors.As(err, &fe) && fe.Field != "" {
			line = lines.line(i, fe.Field)
		}
		where := ""
		if line > 0 {
			where = fmt.Sprintf("line %d: ", line)
		}
		return nil, fmt.Errorf("config file %s: %s[[alerts]] rule %d: %v", path, where, i+1, err)
	}
	return rules, nil
}

// marketRulesPerHost returns rules with each price_cross rule that names
// no account given to the first of accts on each service host (HostKey;
// accounts without a base URL share the built-in simulator): a price is
// the market's, so one crossing fires once per host, not once per
// account. Its Host names every account of the host, whose viewers are
// all shown it. Other rules are kept as they are.
func marketRulesPerHost(rules []alert.Rule, accts []Account) []alert.Rule {
	var hosts [][]string // the accounts of each host, hosts and accounts in accts' order
	index := map[string]int{}
	for _, a := range accts {
		h := HostKey(a.BaseURL)
		i, ok := index[h]
		if !ok {
			i = len(hosts)
			index[h] = i
			hosts = append(hosts, nil)
		}
		hosts[i] = append(hosts[i], a.Name)
	}
	out := make([]alert.Rule, 0, len(rules))
	for _, r := range rules {
		if r.Kind != alert.KindPriceCross || r.Account != "" {
			out = append(out, r)
			continue
		}
		for _, names := range hosts {
			r.Account, r.Host = names[0], names
			out = append(out, r)
		}
	}
	return out
}

// HostKey is baseURL's scheme, host and port (the scheme's default port
// when none is given), lower case: the same for every spelling of one
// host's base URL ("" for none: the built-in simulator).
func HostKey(baseURL string) string {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || u.Host == "" {
		return baseURL
	}
	scheme, port := strings.ToLower(u.Scheme), u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// watchRuleSymbols is watch plus the symbols of the price_cross rules
// that apply to account: a price is followed only for the symbols an
// account touches or watches, so without this a rule on another symbol
// never fired. watch itself is not changed (tables share it).
func watchRuleSymbols(watch []string, rules []alert.Rule, account string) []string {
	out := watch
	for _, r := range rules {
		if r.Kind != alert.KindPriceCross || (r.Account != "" && r.Account != account) || slices.Contains(out, r.Symbol) {
			continue
		}
		if len(out) == len(watch) {
			out = slices.Clone(watch)
		}
		out = append(out, r.Symbol)
	}
	return out
}

// alertLines are the line numbers (from 1) of each [[alerts]] header and
// of the keys under it.
type alertLines struct {
	headers []int
	keys    []map[string]int
	inline  int // line of an inline `alerts = [...]`; 0 when none
}

var (
	alertsHeaderRE = regexp.MustCompile(`^\s*\[\[\s*"?alerts"?\s*\]\]`)
	tableHeaderRE  = regexp.MustCompile(`^\s*\[`)
	keyRE          = regexp.MustCompile(`^\s*"?([A-Za-z0-9_-]+)"?\s*=`)
)

// scanAlertLines finds the [[alerts]] tables of a config file that already
// parsed as TOML, line by line: enough to point at a rule's fields.
func scanAlertLines(text string) alertLines {
	var al alertLines
	cur := -1
	for n, line := range strings.Split(text, "\n") {
		switch {
		case alertsHeaderRE.MatchString(line):
			al.headers = append(al.headers, n+1)
			al.keys = append(al.keys, map[string]int{})
			cur = len(al.headers) - 1
		case tableHeaderRE.MatchString(line):
			cur = -1
		default:
			m := keyRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if cur >= 0 {
				if _, dup := al.keys[cur][m[1]]; !dup {
					al.keys[cur][m[1]] = n + 1
				}
			} else if m[1] == "alerts" && al.inline == 0 {
				al.inline = n + 1
			}
		}
	}
	return al
}

// line is the line of rule i's key (its header when key is "" or not
// found); 0 when unknown.
func (al alertLines) line(i int, key string) int {
	if i >= len(al.headers) {
		return al.inline
	}
	if n, ok := al.keys[i][key]; ok && key != "" {
		return n
	}
	return al.headers[i]
}
