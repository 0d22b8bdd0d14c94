print("lmsession")
