"""Fact tests for banks/data-loading.yaml.

Computes every number that a compute question's right choice states and asserts that the
literal appears in that choice in every language. The DataLoader behaviour the arithmetic
rests on is modelled from the PyTorch 2.x source and docs:

* ``_MultiProcessingDataLoaderIter._reset`` primes ``range(prefetch_factor * num_workers)``
  batch-index requests, i.e. prefetch_factor counts batches *per worker*;
* ``DataLoader.__init__`` sets ``prefetch_factor = 2`` when ``num_workers > 0`` and it was None;
* each worker gets its own replica of an IterableDataset and iterates it in full unless
  ``__iter__`` shards by ``get_worker_info()``.

The estimate questions' answers are read with bot.content.estimates, as a player's would be,
and compared with the value recomputed here.
"""

from __future__ import annotations

import math
import sys

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


# Estimates: the true value recomputed from the PyTorch source's rules and the prompt's numbers, and
# the bank's answer, read as a player's would be, within the question's tolerance.


assert_estimate = BANK.assert_estimate


def distributed_num_samples(dataset_len: int, replicas: int, drop_last: bool) -> int:
    """DistributedSampler.__init__ (torch/utils/data/distributed.py)."""
    if drop_last and dataset_len % replicas != 0:
        return math.ceil((dataset_len - replicas) / replicas)
    return math.ceil(dataset_len / replicas)


def batches(samples: int, batch_size: int, drop_last: bool) -> int:
    """BatchSampler.__len__ (torch/utils/data/sampler.py)."""
    return samples // batch_size if drop_last else (samples + batch_size - 1) // batch_size


def test_estimate_steps_per_epoch() -> None:
    qid = "dl-est-steps-per-epoch"
    dataset_len, ranks, batch_size = 1_281_167, 64, 32
    per_rank = distributed_num_samples(dataset_len, ranks, drop_last=False)
    assert per_rank == 20019
    assert per_rank * ranks - dataset_len == 49  # padding with repeated samples
    steps = batches(per_rank, batch_size, drop_last=False)
    assert steps == 626
    assert_estimate(qid, steps, "count")
    # With drop_last=True in the sampler and the loader: the tail is cut instead.
    dropped = distributed_num_samples(dataset_len, ranks, drop_last=True)
    assert dropped * ranks <= dataset_len
    assert batches(dropped, batch_size, drop_last=True) == 625
    BANK.assert_field_states(qid, "explanation", "20019", "49", "626", "625")


def test_estimate_h2d_copy_time() -> None:
    qid = "dl-est-h2d-copy-time"
    batch_bytes = 512 * 3 * 224 * 224 * 1  # uint8
    assert round(batch_bytes / 1e6) == 77
    link = 25e9  # bytes per second, given in the prompt
    seconds = batch_bytes / link
    assert f"{seconds * 1e3:.1f}" == "3.1"
    assert_estimate(qid, seconds, "time")
    assert f"{4 * batch_bytes / link * 1e3:.1f}" == "12.3"  # the same batch as float32
    BANK.assert_field_states(qid, "explanation", "77 MB", "3.1 ms", "12.3 ms")


def test_estimate_cow_memory_growth() -> None:
    qid = "dl-est-cow-growth"
    paths, bytes_per_str, workers = 20_000_000, 130, 12
    # The prompt's 130 bytes: an 80-character ASCII str on CPython 3.11 is 129 bytes.
    if sys.version_info[:2] == (3, 11):
        assert sys.getsizeof("a" * 80) == 129
    per_worker = paths * bytes_per_str  # every touched object's page is copied into the worker
    assert per_worker == 2_600_000_000
    extra = workers * per_worker  # the docs: number of workers * size of parent process
    assert round(extra / 1e9) == 31
    assert_estimate(qid, extra, "memory")
    BANK.assert_field_states(qid, "explanation", "2.6 GB", "31 GB")
