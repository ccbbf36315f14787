// Declarations only (include/LibFuzzerDriver.h); libFuzzer defines the driver.
#include "LibFuzzerDriver.h"
