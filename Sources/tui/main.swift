import CNcursesw
import ArgumentParser
import Logging
import Storage
import Render
print("hi")
