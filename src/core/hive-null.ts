/**
 * How Hive, Spark and DuckDB spell a NULL partition value: the date of a kline partition of daily
 * and longer bars (partitioned by year only), as the sink writes it, the planner names it and the
 * Delta log reads it back.
 */
export const HIVE_NULL = '__HIVE_DEFAULT_PARTITION__';
