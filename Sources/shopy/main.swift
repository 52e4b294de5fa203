print("shopy")
