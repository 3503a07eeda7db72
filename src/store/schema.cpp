#include "schema.hpp"

namespace augur::store::sqlite {

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> list = {
      {1, "machines, applications, kernels, datasets, runs, measurements, couplings",
       R"sql(
CREATE TABLE machines (
  id            INTEGER PRIMARY KEY,
  hostname      TEXT    NOT NULL,
  cpu_model     TEXT    NOT NULL,
  cores         INTEGER NOT NULL,
  l1d_bytes     INTEGER NOT NULL,  -- 0: unknown
  l2_bytes      INTEGER NOT NULL,
  l3_bytes      INTEGER NOT NULL,
  memory_bytes  INTEGER NOT NULL,
  machine_class TEXT    NOT NULL,
  UNIQUE (hostname, cpu_model, cores, l1d_bytes, l2_bytes, l3_bytes, memory_bytes)
);
CREATE INDEX machines_by_class ON machines (machine_class);

CREATE TABLE applications (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

CREATE TABLE kernels (
  id             INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  position       INTEGER NOT NULL CHECK (position >= 0),
  name           TEXT    NOT NULL,
  calls          INTEGER NOT NULL CHECK (calls >= 1),
  UNIQUE (application_id, position)
);

CREATE TABLE datasets (
  id              INTEGER PRIMARY KEY,
  application_id  INTEGER NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  label           TEXT    NOT NULL,
  problem_size    REAL    NOT NULL,
  footprint_bytes REAL    NOT NULL,
  UNIQUE (application_id, label, problem_size, footprint_bytes)
);

CREATE TABLE runs (
  id                      INTEGER PRIMARY KEY,
  application_id          INTEGER NOT NULL REFERENCES applications (id),
  machine_id              INTEGER NOT NULL REFERENCES machines (id),
  dataset_id              INTEGER NOT NULL REFERENCES datasets (id),
  threads                 INTEGER NOT NULL CHECK (threads >= 1),
  ranks                   INTEGER NOT NULL CHECK (ranks >= 1),
  processors              INTEGER NOT NULL,
  iterations              INTEGER NOT NULL CHECK (iterations >= 1),
  started                 TEXT    NOT NULL,
  options                 TEXT    NOT NULL,  -- JSON object of strings
  application_seconds     REAL,              -- the application_* columns: NULL when not measured
  application_ci_low      REAL,
  application_ci_high     REAL,
  application_repetitions INTEGER,
  application_samples     TEXT,              -- JSON array of seconds
  source                  TEXT    NOT NULL,  -- the measurement file
  added                   TEXT    NOT NULL   -- ISO 8601 UTC
);
CREATE INDEX runs_by_application ON runs (application_id);
CREATE INDEX runs_by_machine ON runs (machine_id);
CREATE INDEX runs_by_dataset ON runs (dataset_id);

CREATE TABLE measurements (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,  -- order in the measurement file
  chain       TEXT    NOT NULL,  -- kernel indices "0,1,2"
  length      INTEGER NOT NULL CHECK (length >= 1),
  seconds     REAL,              -- median seconds per execution of the chain
  ci_low      REAL,
  ci_high     REAL,
  repetitions INTEGER NOT NULL CHECK (repetitions >= 1),
  samples     TEXT    NOT NULL,  -- JSON array of seconds
  UNIQUE (run_id, chain)
);

CREATE TABLE couplings (
  id                INTEGER PRIMARY KEY,
  run_id            INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  chain             TEXT    NOT NULL,
  length            INTEGER NOT NULL CHECK (length >= 2),
  value             REAL,  -- C_W = P_W / sum of P_j over j in W; NULL when undefined
  chain_seconds     REAL,  -- P_W
  sum_alone_seconds REAL,  -- sum of P_j over j in W
  UNIQUE (run_id, chain)
);
)sql"},
  };
  return list;
}

}  // namespace augur::store::sqlite
