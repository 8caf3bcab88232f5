package clean
