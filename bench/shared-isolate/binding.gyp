{
  "targets": [
    {
      "target_name": "shared_isolate_probe",
      "sources": ["shared_isolate_probe.cc"],
      "cflags_cc": ["-O2"]
    }
  ]
}
