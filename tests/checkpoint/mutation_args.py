"""The command line of the checkpoint mutation tests (bad_checkpoints.py, crafted_records.py):
SOURCE_DIR BUILD_DIR WORK_DIR [--mutations N] [--seed S]."""
import argparse


def parse(mutations, seed):
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("build")
    ap.add_argument("work")
    ap.add_argument("--mutations", type=int, default=mutations)
    ap.add_argument("--seed", type=int, default=seed)
    return ap.parse_args()
