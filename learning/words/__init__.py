"""Words the learning pages say: reasons, comparisons, cube advice, labels, the scripts' strings."""
