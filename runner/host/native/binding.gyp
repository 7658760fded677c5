{
  "targets": [
    {
      "target_name": "vu_host",
      "sources": ["vu_host.cc"],
      "cflags_cc": ["-O2"]
    }
  ]
}
