"""The dice's proof and fairness: statistics, the chi-square test, the verify page's data."""
