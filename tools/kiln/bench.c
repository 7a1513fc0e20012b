#include "kiln.h"
int kiln_cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return KILN_OK;
}
