#include <nothere.h>
#warning hi
