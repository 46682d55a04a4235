#!/bin/bash
echo "host tests: none yet"
