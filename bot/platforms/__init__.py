"""Platform adapters: translate updates to core requests and replies to platform calls."""
