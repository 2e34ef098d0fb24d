"""Retrieval: the shared types and index; keyword, ranked (BM25F), dense and hybrid
(fused) rankings; and the confidence that makes a ranking an answer, candidates or a
refusal."""
