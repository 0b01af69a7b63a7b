internal import CLlama
