package sim

func (s *Server) handlePing(*call) (any, *apiError) { return struct{}{}, nil }

func (s *Server) handleTime(c *call) (any, *apiError) {
	return map[string]int64{"serverTime": c.now.UnixMilli()}, nil
}

func (s *Server) handleBrokerInfo(c *call) (any, *apiError) {
	lim := s.opts.RateLimits
	type m = map[string]any
	syms := make([]m, 0, len(s.symbolList))
	var contracts []m
	for _, sym := range s.symbolList {
		row := m{
			"symbol": sym.name, "status": "TRADING", "baseAsset": sym.base, "quoteAsset": sym.quote,
			"baseAssetPrecision": sym.step.String(), "quotePrecision": sym.tick.String(),
			"filters": []m{
				{"filterType": "PRICE_FILTER", "minPrice": sym.minPrice.String(), "maxPrice": sym.maxPrice.String(), "tickSize": sym.tick.String()},
				{"filterType": "LOT_SIZE", "minQty": sym.minQty.String(), "maxQty": sym.maxQty.String(), "stepSize": sym.step.String()},
				{"filterType": "MIN_NOTIONAL", "minNotional": sym.minNotional.String()},
			},
		}
		if sym.contract {
			row["inverse"] = sym.inverse
			row["marginToken"] = sym.marginAsset
			row["index"] = sym.index
			row["contractMultiplier"] = sym.multiplier.String()
			row["riskLimits"] = []m{
				{"quantity": "1000000", "initialMargin": "0.01", "maintMargin": "0.005"},
				{"quantity": "5000000", "initialMargin": "0.02", "maintMargin": "0.01"},
			}
			contracts = append(contracts, row)
			continue
		}
		syms = append(syms, row)
	}
	return m{
		"timezone":   "UTC",
		"serverTime": c.now.UnixMilli(),
		"rateLimits": []m{
			{"rateLimitType": "REQUEST_WEIGHT", "interval": "MINUTE", "limit": lim.WeightPerMinute},
			{"rateLimitType": "ORDER", "interval": "SECOND", "limit": lim.OrdersPerSecond},
			{"rateLimitType": "ORDER", "interval": "DAY", "limit": lim.OrdersPerDay},
		},
		"brokerFilters": []m{},
		"symbols":       syms,
		"contracts":     contracts,
	}, nil
}
