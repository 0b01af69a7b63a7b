internal import CZstd
