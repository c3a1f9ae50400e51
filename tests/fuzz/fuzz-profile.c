int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size);
int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size){(void)data;(void)size;return 0;}
