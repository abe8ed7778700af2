-- 007: serving calibrations, one row per imported serving benchmark run: the deployment it
-- measured, the model's prediction for it and their ratio, the factor plans apply per GPU
-- type, stack profile and model class.

CREATE TABLE serving_calibrations (
    id                INTEGER PRIMARY KEY,
    fingerprint       TEXT NOT NULL UNIQUE,
    gpu_id            TEXT NOT NULL,
    stack             TEXT NOT NULL,
    model             TEXT NOT NULL,
    model_class       TEXT NOT NULL CHECK (model_class IN ('dense', 'moe')),
    format            TEXT NOT NULL CHECK (format IN ('vllm', 'sglang', 'inferencex')),
    origin            TEXT NOT NULL,
    line              INTEGER NOT NULL CHECK (line >= 1),
    layout            TEXT NOT NULL,
    gpus              INTEGER NOT NULL CHECK (gpus >= 1),
    concurrency       INTEGER NOT NULL CHECK (concurrency >= 1),
    precision         TEXT NOT NULL,
    input_tokens      REAL NOT NULL CHECK (input_tokens > 0),
    output_tokens     REAL NOT NULL CHECK (output_tokens > 0),
    measured_per_gpu  REAL NOT NULL CHECK (measured_per_gpu > 0),
    predicted_per_gpu REAL NOT NULL CHECK (predicted_per_gpu > 0),
    factor            REAL NOT NULL CHECK (factor > 0),
    measured_on       TEXT NOT NULL DEFAULT '',
    imported_at       INTEGER NOT NULL
);
CREATE INDEX serving_calibrations_key ON serving_calibrations (gpu_id, stack, model_class);
