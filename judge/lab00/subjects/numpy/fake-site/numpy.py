# A stand-in for a Python without NumPy: the subject no-numpy.py puts this
# folder first on PYTHONPATH, so `import numpy` fails as it does where
# python3-numpy is not installed.
raise ModuleNotFoundError("No module named 'numpy'")
