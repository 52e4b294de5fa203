print("emu")
