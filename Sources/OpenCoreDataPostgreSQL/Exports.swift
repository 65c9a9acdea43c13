// `import OpenCoreDataPostgreSQL` is enough: the store's users need Core Data's API with it.
@_exported import OpenCoreData
