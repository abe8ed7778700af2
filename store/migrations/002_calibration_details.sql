-- 002: what a calibration point and fit need beyond 001: how each point ran and verified, the
-- fit's residual per point, parameter errors, and the datasheet peak efficiencies refer to.

ALTER TABLE calibration_points ADD COLUMN impl TEXT NOT NULL DEFAULT '';      -- what ran
ALTER TABLE calibration_points ADD COLUMN size REAL NOT NULL DEFAULT 0;       -- fit x: FLOP or bytes per run
ALTER TABLE calibration_points ADD COLUMN warmups INTEGER NOT NULL DEFAULT 0;
ALTER TABLE calibration_points ADD COLUMN max_error REAL NOT NULL DEFAULT 0;  -- verification, <= 1 passed
ALTER TABLE calibration_points ADD COLUMN residual REAL NOT NULL DEFAULT 0;   -- efficiency minus the fit

ALTER TABLE calibration_fits ADD COLUMN eff_max_se REAL NOT NULL DEFAULT 0;
ALTER TABLE calibration_fits ADD COLUMN s_half_se REAL NOT NULL DEFAULT 0;
-- TFLOP/s or GB/s the efficiencies are fractions of; 0 = no catalog entry, eff_max is absolute
ALTER TABLE calibration_fits ADD COLUMN peak REAL NOT NULL DEFAULT 0;

CREATE INDEX calibrations_gpu ON calibrations (gpu_id, started_at);
