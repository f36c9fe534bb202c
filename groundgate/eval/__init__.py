"""Evaluation: the golden-set runner, the ablation configurations, metrics and the report."""
