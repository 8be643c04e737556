// One main for every Catch2 test executable of the project.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
