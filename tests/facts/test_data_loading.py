"""Fact tests for banks/data-loading.yaml.

Computes every number that a compute question's right choice states and asserts that the
literal appears in that choice in every language. The DataLoader behaviour the arithmetic
rests on is modelled from the PyTorch 2.x source and docs:

* ``_MultiProcessingDataLoaderIter._reset`` primes ``range(prefetch_factor * num_workers)``
  batch-index requests, i.e. prefetch_factor counts batches *per worker*;
* ``DataLoader.__init__`` sets ``prefetch_factor = 2`` when ``num_workers > 0`` and it was None;
* each worker gets its own replica of an IterableDataset and iterates it in full unless
  ``__iter__`` shards by ``get_worker_info()``.

Stdlib + PyYAML only.
"""

from __future__ import annotations

import math

import pytest

from .support import FactBank

BANK = FactBank("data-loading")

# PyTorch 2.x DataLoader: default prefetch_factor when num_workers > 0 (None when num_workers == 0).
DEFAULT_PREFETCH_FACTOR_WITH_WORKERS = 2


def outstanding_batches(num_workers: int, prefetch_factor: int | None) -> int:
    """Batch requests the multi-process iterator keeps in flight (PyTorch 2.x semantics)."""
    if num_workers == 0:
        if prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing")
        return 0
    if prefetch_factor is None:
        prefetch_factor = DEFAULT_PREFETCH_FACTOR_WITH_WORKERS
    return prefetch_factor * num_workers


def test_batches_in_flight() -> None:
    qid = "dl-batches-in-flight"
    n = outstanding_batches(num_workers=6, prefetch_factor=4)
    assert n == 24
    BANK.assert_right_states(qid, str(n))
    # distractors: prefetch_factor read as a loader-wide total (4), the sum (10), one per worker (6)
    for literal in ("4 ", "10 ", "6 "):
        assert any(c["en"].startswith(literal) for c in BANK.wrong(qid)), literal
    with pytest.raises(ValueError):
        outstanding_batches(num_workers=0, prefetch_factor=4)


def test_prefetched_host_memory() -> None:
    qid = "dl-prefetch-host-memory"
    batch_bytes = 256 * 3 * 224 * 224 * 4  # float32
    assert batch_bytes == 154_140_672
    assert round(batch_bytes / 1e6) == 154
    batches = outstanding_batches(num_workers=8, prefetch_factor=None)
    assert batches == 16
    total = batches * batch_bytes
    assert f"{total / 1e9:.2f}" == "2.47"
    assert f"{total / 1e9:.1f}" == "2.5"
    BANK.assert_right_states(qid, "2.5 GB")
    # distractors: one batch, one batch per worker, uint8 instead of float32
    assert f"{batch_bytes / 1e9:.2f}" == "0.15"
    assert f"{8 * batch_bytes / 1e9:.1f}" == "1.2"
    assert f"{batches * batch_bytes // 4 / 1e9:.1f}" == "0.6"
    for literal in ("0.15 GB", "1.2 GB", "0.6 GB"):
        assert any(literal in c["en"] for c in BANK.wrong(qid)), literal


def test_per_worker_throughput() -> None:
    qid = "dl-per-worker-throughput"
    batch, step_s, workers = 512, 0.25, 16
    loader_rate = batch / step_s
    assert loader_rate == 2048
    per_worker = loader_rate / workers
    assert per_worker == 128
    assert batch / per_worker == 4  # seconds per batch per worker
    BANK.assert_right_states(qid, f"{per_worker:.0f} samples/s")
    # distractors: whole-loader rate, batch / workers, batch per second
    for literal in ("2048 samples/s", f"{batch // workers} samples/s", "512 samples/s"):
        assert any(literal in c["en"] for c in BANK.wrong(qid)), literal
    assert math.ceil(loader_rate / per_worker) == workers


def test_iterable_dataset_duplicates() -> None:
    qid = "dl-iterable-duplicates"
    records, workers = 1000, 4
    stream = list(range(records))
    # every worker iterates its own full replica when __iter__ ignores get_worker_info()
    naive = [r for _ in range(workers) for r in stream]
    assert len(naive) == 4000
    assert all(naive.count(r) == workers for r in (0, 499, 999))
    # the docs' sharding pattern: contiguous per-worker ranges of ceil(n / workers)
    per = math.ceil(records / workers)
    sharded = [r for w in range(workers) for r in stream[w * per : min((w + 1) * per, records)]]
    assert sorted(sharded) == stream
    BANK.assert_right_states(qid, str(len(naive)))
