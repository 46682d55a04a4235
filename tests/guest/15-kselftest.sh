#!/bin/sh
# Run the pgo kselftest (tools/testing/selftests/pgo) and keep its KTAP.
mkdir -p /out/kselftest
sh /kselftest/pgo/pgo_sysfs.sh > /out/kselftest/pgo_sysfs.tap 2>&1
echo "$?" > /out/kselftest/pgo_sysfs.rc
cat /out/kselftest/pgo_sysfs.tap
